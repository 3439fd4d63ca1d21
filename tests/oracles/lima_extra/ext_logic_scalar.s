load.v $1 0
gt.s0 $2.x $1.x ^const0.x, const0 0.0 0.0 0.0 0.0
gt.s0 $2.y $1.y ^const0.x, const0 0.0 0.0 0.0 0.0
and.s0 $3.x $2.x $2.y
or.s0 $3.y $2.x $2.y
xor.s0 $3.z $2.x $2.y
not.s0 $3.w $2.x
and.v0 ^v0 $3 $3.yyyy, add.v1 $3 ^v0 $3
stop, mov.v1 $0 $3
