load.v $1.x 0.x
max.s0 ^s0 $1.x ^const0.x, min.s1 $2.x ^s0 ^const0.y, const0 0.0 3.0 0.0 0.0
mov_int.s0 $2.x $2.x
stop, load.u 0+$2.x, mov.v1 $0 ^uniform
