load.v $1 0
ceil.s1 $2.x $1.x
fract.s1 $2.y $1.y
mov_sat.s0 $2.z $1.z
mov_pos.s1 $2.w $1.w
max.s0 ^s0 $1.x $1.y, min.s1 $3.x ^s0 $1.z
ne.s1 $3.y $1.x $1.y
ge.s0 $3.z $1.z $1.w
eq.s1 $3.w $1.w $1.w
add.v1 $0 $2 $3
stop, mul_x4.s0 ^s0 $3.x $1.w, mov.v1 $0 $0, add.s1 $0.x ^s0 $0.x
