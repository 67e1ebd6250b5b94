package simt

import "fmt"

// raceState finds shared-memory races between warps. The lanes of a program run in
// lockstep, so a missing barrier would go unnoticed: instead, each byte remembers the
// interval (the barriers counted so far) and the warp of its last write and the warps that
// read it in that interval. Within one interval, a read of what another warp wrote, or a
// write of what another warp read, or wrote with other bytes, has no order on a GPU and is
// an error.
type raceState struct {
	interval uint32
	wInt     []uint32 // interval of the last write
	wWarp    []uint8
	rInt     []uint32 // interval of the reads in rWarps
	rWarps   []uint32 // bit w: warp w read the byte in interval rInt
}

func (r *raceState) init(size int) {
	r.wInt, r.wWarp = make([]uint32, size), make([]uint8, size)
	r.rInt, r.rWarps = make([]uint32, size), make([]uint32, size)
}

// barrier starts a new interval.
func (r *raceState) barrier() { r.interval++ }

// check records a read or an asynchronous write of [addr, addr+size) by warp.
func (r *raceState) check(addr, size, warp int, acc access) error {
	now, bit := r.interval, uint32(1)<<warp
	for a := addr; a < addr+size; a++ {
		switch acc {
		case asyncWrite:
			r.wInt[a] = 0 // written by a copy whose wait orders it for everyone
		case read:
			if r.wInt[a] == now && int(r.wWarp[a]) != warp {
				return fmt.Errorf("shared memory race: warp %d reads byte %#x that warp %d wrote since the last barrier", warp, a, r.wWarp[a])
			}
			if r.rInt[a] != now {
				r.rInt[a], r.rWarps[a] = now, 0
			}
			r.rWarps[a] |= bit
		}
	}
	return nil
}

// write records that warp writes data over cur, the bytes at addr. A write over another
// warp's write of this interval is a race unless it stores the same bytes (warps that
// hold copies of one element all store it).
func (r *raceState) write(addr int, data, cur []byte, warp int) error {
	now, bit := r.interval, uint32(1)<<warp
	for i := range data {
		a := addr + i
		if r.wInt[a] == now && int(r.wWarp[a]) != warp && data[i] != cur[i] {
			return fmt.Errorf("shared memory race: warp %d writes byte %#x that warp %d wrote since the last barrier, with another value", warp, a, r.wWarp[a])
		}
		if r.rInt[a] == now && r.rWarps[a]&^bit != 0 {
			return fmt.Errorf("shared memory race: warp %d writes byte %#x that another warp read since the last barrier (warps %#x)", warp, a, r.rWarps[a]&^bit)
		}
		r.wInt[a], r.wWarp[a] = now, uint8(warp)
	}
	return nil
}
