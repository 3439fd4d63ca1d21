load.v $1 0
exp2_vec.s2 $2.xy $1.x
mul.s2 $3 $1.y $1
log2.s2 $2.z $1.z_abs
mov.s2 $2.w -$1.w
rcp.s2 $4.x $1.y
add.v1 $0 $2 $3
stop, mov.v1 $0 $0, add.s1 $0.x $0.x $4.x
