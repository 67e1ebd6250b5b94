package lower

import "github.com/gotriton/gotriton/tileir"

func lowerBlockLoad(g *gen, op *tileir.Op) error {
	return g.errorf(op, "loads through block pointers are not supported yet")
}

func lowerBlockStore(g *gen, op *tileir.Op) error {
	return g.errorf(op, "stores through block pointers are not supported yet")
}
