package semantic

import "github.com/gotriton/gotriton/tileir"

// ttirPasses is the pass list that turns freshly generated tile IR into what Triton 3.6's
// make_ttir prints for the CUDA backend (third_party/nvidia/backend/compiler.py): the
// inliner (our code generator already inlines every jit call), rewrite_tensor_pointer,
// the canonicalizer, combine, reorder_broadcast, CSE, symbol DCE and loop_unroll. Passes
// that have nothing to do on our IR are left out (see below); dce stands in for the
// dead-op erasure that MLIR's canonicalizer and greedy rewrites do as they go, before
// combine so that its one-use checks see live users only, and at the end.
var ttirPasses = []string{"rewrite_tensor_pointer", "canonicalize", "dce", "combine", "reorder_broadcast", "cse", "dce"}

// verifyEachPass makes the pipeline verify the IR after every pass and report the pass
// that broke it. Tests turn it on; Generate always verifies the final IR.
var verifyEachPass = false

// runPipeline runs ttirPasses on m.
func runPipeline(m *tileir.Module) error {
	return tileir.Run(m, ttirPasses, verifyEachPass)
}
