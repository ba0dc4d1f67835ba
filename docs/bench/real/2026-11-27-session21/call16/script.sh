# Session 21 call 16 (run inline): the failed test of call 15 alone, three times, on the same machine
cd dist && SSSP_HOST_BIN=$PWD/host ./tests/gpu_solver --include-ignored batches_on_several_streams   # x3: ok, ok, ok
