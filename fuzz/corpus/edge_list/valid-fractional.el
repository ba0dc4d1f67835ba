# fractional weights: valid with --weights f32
0 1 0.5
1 2 .125
2 0 7
