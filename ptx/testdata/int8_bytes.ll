; Byte vectors: an i32 word seen as <4 x i8> (Triton's int8 and fp8
; loads), bytes changed and repacked; an i64 byte reversal through
; shufflevector; and a word seen as <2 x i16>, <4 x i8> and <2 x half>.
target datalayout = "e-p3:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"

define ptx_kernel void @bytes(i32 addrspace(1)* %p, i64 addrspace(1)* %q) {
  %x = load i32, i32 addrspace(1)* %p, align 4
  %v = bitcast i32 %x to <4 x i8>
  %a = extractelement <4 x i8> %v, i32 1
  %b = add i8 %a, 1
  %v2 = insertelement <4 x i8> %v, i8 %b, i32 3
  %y = bitcast <4 x i8> %v2 to i32
  store i32 %y, i32 addrspace(1)* %p, align 4
  %z = load i64, i64 addrspace(1)* %q, align 8
  %zv = bitcast i64 %z to <8 x i8>
  %zs = shufflevector <8 x i8> %zv, <8 x i8> undef, <8 x i32> <i32 7, i32 6, i32 5, i32 4, i32 3, i32 2, i32 1, i32 0>
  %zz = bitcast <8 x i8> %zs to i64
  store i64 %zz, i64 addrspace(1)* %q, align 8
  %h = bitcast i32 %x to <2 x i16>
  %hv = bitcast <2 x i16> %h to <4 x i8>
  %hw = bitcast <4 x i8> %hv to <2 x half>
  %hh = extractelement <2 x half> %hw, i32 0
  %hp = bitcast i32 addrspace(1)* %p to half addrspace(1)*
  store half %hh, half addrspace(1)* %hp, align 2
  ret void
}
