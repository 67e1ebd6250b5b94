package ptx

import (
	"strings"
	"testing"
)

// TestExternCall checks a call of a function the module only declares (device_print's
// vprintf): its .extern .func declaration, the arguments buffer (an alloca) in the local
// depot with its generic address computed once, and the call sequence.
func TestExternCall(t *testing.T) {
	src := `target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
@fmt = internal addrspace(1) constant [4 x i8] c"%u\0A\00", align 1
declare i32 @vprintf(i8*, i8*)
define ptx_kernel void @k(i32 %x) {
  %buf = alloca { i32, double }, align 8
  %f = getelementptr { i32, double }, { i32, double }* %buf, i32 0, i32 0
  store i32 %x, i32* %f
  %d = getelementptr { i32, double }, { i32, double }* %buf, i32 0, i32 1
  store double 1.0, double* %d
  %a = bitcast { i32, double }* %buf to i8*
  %r = call i32 @vprintf(i8* addrspacecast (i8 addrspace(1)* getelementptr ([4 x i8], [4 x i8] addrspace(1)* @fmt, i32 0, i32 0) to i8*), i8* %a)
  ret void
}
`
	out := compileChecked(t, src)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" && !strings.HasPrefix(l, "//") && !strings.HasPrefix(l, ".reg") {
			lines = append(lines, l)
		}
	}
	got := strings.Join(lines, "\n")
	want := `.extern .func (.param .b32 func_retval0) vprintf
(
.param .b64 vprintf_param_0,
.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 fmt[4] = {37, 117, 10, 0};
.visible .entry k(
.param .u32 k_param_0
)
{
.local .align 8 .b8 __local_depot0[16];
ld.param.u32 %r1, [k_param_0];
mov.b64 %rd2, __local_depot0;
cvta.local.u64 %rd3, %rd2;
add.u64 %rd1, %rd3, 0;`
	if !strings.Contains(got, want) {
		t.Errorf("declarations and prologue: got\n%s\nwant them to contain\n%s", got, want)
	}
	call := `{ // callseq 1
.param .b64 param0;
st.param.b64 [param0], %rd5;
.param .b64 param1;
st.param.b64 [param1], %rd1;
.param .b32 retval0;
call.uni (retval0), vprintf, (param0, param1);
ld.param.b32 %r2, [retval0];
}`
	if !strings.Contains(got, call) {
		t.Errorf("call sequence: got\n%s\nwant it to contain\n%s", got, call)
	}
	for _, st := range []string{"st.b32 [%rd1], %r1;", "st.f64 [%rd1+8], %fd1;"} {
		if !strings.Contains(got, st) {
			t.Errorf("missing %q in\n%s", st, got)
		}
	}
}
