p aux sp ss 3
s 1
