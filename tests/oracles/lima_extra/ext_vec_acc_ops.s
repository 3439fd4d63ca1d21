load.v $1 0
fract.v1 $2 $1
ceil.v1 $3 $1
sum4.v1 $4 $1
mul.v0 ^v0 $2 $3, add.v1 $5 ^v0 $4
floor.v1 $2 -$1_abs
mov_sat.v0 ^v0 $1.wzyx, add.v1 $5 ^v0 $5
max.v1 $3 $1 $2
mov_pos.v0 ^v0 $3, add.v1 $5 ^v0 $5
stop, mov.v1 $0 $5
