load.v $1 0
load.v $2 1, ne.v0 $3 $1 $2
ge.v1 $4 $1 $2
mul_x2.v0 ^v0 $4 ^const0.xxxx, add.v1 $3 ^v0 $3, const0 1.0 0.0 0.0 0.0
min.v0 ^v0 $1 $2, add.v1 $3 ^v0 $3
gt.v1 $4 $1 $2
eq.v0 ^v0 $1 $1, add.v1 $3 ^v0 $3
mul_d2.v0 ^v0 $4 $2, add.v1 $3 ^v0 $3
stop, mov.v1 $0 $3
