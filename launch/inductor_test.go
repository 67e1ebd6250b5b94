package launch

import (
	"testing"

	"github.com/gotriton/gotriton/pyeval"
)

const inductorHeader = `import triton
import triton.language as tl
from triton.compiler.compiler import AttrsDescriptor
from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import ReductionHint, DeviceProperties
`

func TestInductor(t *testing.T) {
	tests := []struct {
		name, decorator, def, want string
		consts                     map[string]pyeval.Value
	}{
		{"pointwise, PyTorch 2.6 from_dict",
			`@triton_heuristics.pointwise(size_hints={'x': 4096}, filename=__file__, triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp16', 'xnumel': 'i32'}, 'device': DeviceProperties(type='cuda', index=0), 'constants': {}, 'configs': [AttrsDescriptor.from_dict({'arg_properties': {'tt.divisibility': (0, 1, 2), 'tt.equal_to': ()}, 'cls': 'AttrsDescriptor'})]}, inductor_meta={'autotune_hints': set()}, min_elem_per_thread=0)`,
			"def k(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):",
			"k: *fp32:16, *fp16:16, i32:16, 256 w=4 s=1\n", nil},
		{"pointwise 2D, PyTorch 2.5 AttrsDescriptor, equal to 1, -c",
			`@triton_heuristics.pointwise(size_hints=[64, 16], tile_hint=TileHint.SQUARE, triton_meta={'signature': {0: '*fp32', 1: '*fp32', 2: 'i32', 3: 'i32'}, 'device': 0, 'constants': {}, 'configs': [AttrsDescriptor(divisible_by_16=(0, 1), equal_to_1=(3,))]})`,
			"def k(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):",
			"k: *fp32:16, *fp32:16, i32, i32:1, 16, 128 w=8 s=1\n", map[string]pyeval.Value{"XBLOCK": pyeval.NewInt(128)}},
		{"reduction, contiguous config first",
			`@triton_heuristics.reduction(size_hints={'x': 8, 'r0_': 8192}, reduction_hint=ReductionHint.INNER, triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'xnumel': 8}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]})`,
			"def k(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):",
			"k: *bf16:16, *fp32:16, 8, i32:16, 1, 2048 w=8 s=1\n", nil},
		{"persistent reduction, outer hint",
			`@triton_heuristics.persistent_reduction(size_hints={'x': 4096, 'r0_': 32}, reduction_hint=ReductionHint.OUTER, triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]]}]})`,
			"def k(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):",
			"k: *fp32:16, *fp32, i32, i32, 128 w=8 s=1\n", nil},
		{"no signature",
			`@triton_heuristics.pointwise(size_hints={'x': 16}, triton_meta={'constants': {}})`,
			"def k(in_ptr0, XBLOCK : tl.constexpr):",
			"k: unknown: the Inductor kernel 'k': triton_meta has no 'signature'\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := inductorHeader + "from torch._inductor.runtime.hints import TileHint\n\n" + tc.decorator + "\n@triton.jit\n" + tc.def + "\n    pass\n"
			got := inferSource(t, src, "", Options{Constants: tc.consts})
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
