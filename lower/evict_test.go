package lower

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestEvictionPolicy checks the accesses of loads and stores with an eviction policy
// against Triton 3.6's (LoadStoreOpToLLVM.cpp): a createpolicy of the L2 priority before
// each access, whose register follows the address, and the L1 priority and
// .L2::cache_hint after the cache modifier; no policy leaves the access as it was.
func TestEvictionPolicy(t *testing.T) {
	createPolicy := regexp.MustCompile(`call i64 asm sideeffect "createpolicy\.fractional\.L2::(evict_\w+)\.b64 \$0, 1\.0;", "=l"\(\)`)
	for _, tc := range []struct {
		load, store string // the ops' attributes
		ld, st      string // the asm of each access: text, constraints
		policies    []string
	}{
		{"", "",
			`mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"`,
			`@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"`, nil},
		{"evictionPolicy = evict_last", "cacheModifier = wb evictionPolicy = evict_first",
			`mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$6 ld.global.L1::evict_last.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ], $5;", "=r,=r,=r,=r,l,l,b"`,
			`@$6 st.global.wb.L1::evict_first.L2::cache_hint.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 }, $5;", "r,r,r,r,l,l,b"`,
			[]string{"evict_last", "evict_first"}},
		{"cacheModifier = cg evictionPolicy = evict_first", "evictionPolicy = evict_last",
			`@$6 ld.global.cg.L1::evict_first.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ], $5;", "=r,=r,=r,=r,l,l,b"`,
			`@$6 st.global.L1::evict_last.L2::cache_hint.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 }, $5;", "r,r,r,r,l,l,b"`,
			[]string{"evict_first", "evict_last"}},
	} {
		t.Run(tc.load+"/"+tc.store, func(t *testing.T) {
			src := fmt.Sprintf(`module {
  tt.func public @k(%%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %%q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %%n: i32 {tt.divisibility = 16 : i32}) {
    %%r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %%ns = tt.splat %%n : i32 -> tensor<512xi32>
    %%m = arith.cmpi slt, %%r, %%ns : tensor<512xi32>
    %%ps = tt.splat %%p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %%pp = tt.addptr %%ps, %%r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %%x = tt.load %%pp, %%m %s : tensor<512x!tt.ptr<f32>>
    %%qs = tt.splat %%q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %%qp = tt.addptr %%qs, %%r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %%qp, %%x, %%m %s : tensor<512x!tt.ptr<f32>>
    tt.return
  }
}`, tc.load, tc.store)
			ll, err := lowerSource(t, "k", src)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{tc.ld, tc.st} {
				if !strings.Contains(ll, want) {
					t.Errorf("no access %s in\n%s", want, ll)
				}
			}
			var got []string
			for _, m := range createPolicy.FindAllStringSubmatch(ll, -1) {
				got = append(got, m[1])
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.policies) {
				t.Errorf("createpolicy of %v, want %v", got, tc.policies)
			}
			if n := strings.Count(ll, "createpolicy"); n != len(tc.policies) {
				t.Errorf("%d createpolicy, want %d", n, len(tc.policies))
			}
		})
	}
}
