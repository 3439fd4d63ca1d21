load.v $1 0, mul.v0 $2 $1 $1, store.t 65534 $1
load.v $1 1, add.v1 $3 $1 $2, store.t 5 $2
load.t 65534, mul.v0 ^v0 ^uniform $3, add.v1 $2 ^v0 $3
load.t 5, add.v1 $2 ^uniform $2
stop, mov.v1 $0 $2
