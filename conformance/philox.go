package conformance

import "math"

// Philox 4x32-10, exactly as Triton 3.6's triton.language.random computes it for tl.rand
// and tl.randint with a 32-bit offset: the counter is (offset, 0, 0, 0) and the key is
// the seed's low and high 32-bit words (the seed is first widened to 64 bits, a signed
// 32-bit seed with sign extension).
const (
	philoxW0 = 0x9E3779B9
	philoxW1 = 0xBB67AE85
	philoxM0 = 0xD2511F53
	philoxM1 = 0xCD9E8D57
)

// Philox4x32 runs rounds rounds of Philox on counter c with key k.
func Philox4x32(c [4]uint32, k [2]uint32, rounds int) [4]uint32 {
	for range rounds {
		p0 := uint64(philoxM0) * uint64(c[0])
		p1 := uint64(philoxM1) * uint64(c[2])
		c = [4]uint32{
			uint32(p1>>32) ^ c[1] ^ k[0],
			uint32(p1),
			uint32(p0>>32) ^ c[3] ^ k[1],
			uint32(p0),
		}
		k[0] += philoxW0
		k[1] += philoxW1
	}
	return c
}

// RandInt4x is tl.randint4x(seed, offset) for a 32-bit offset.
func RandInt4x(seed int64, offset int32) [4]uint32 {
	s := uint64(seed)
	return Philox4x32([4]uint32{uint32(offset), 0, 0, 0}, [2]uint32{uint32(s), uint32(s >> 32)}, 10)
}

// RandInt is tl.randint(seed, offset): the first word of RandInt4x.
func RandInt(seed int64, offset int32) uint32 { return RandInt4x(seed, offset)[0] }

// UintToUniform is Triton's uint_to_uniform_float for 32-bit words: the word read as a
// signed int32, folded onto [0, 2^31) and scaled in fp32 to [0, 1).
func UintToUniform(x uint32) float32 {
	v := int32(x)
	if v < 0 {
		v = -v - 1
	}
	return float32(v) * float32(4.6566127342e-10)
}

// Rand is tl.rand(seed, offset): a uniform float32 in [0, 1).
func Rand(seed int64, offset int32) float32 { return UintToUniform(RandInt(seed, offset)) }

// RandBits returns Rand's value as fp32 bits (for golden comparisons).
func RandBits(seed int64, offset int32) uint32 { return math.Float32bits(Rand(seed, offset)) }
