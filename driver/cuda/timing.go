package cuda

import (
	"errors"
	"fmt"
	"slices"
)

// TimeOptions control how Time measures.
type TimeOptions struct {
	// Warmup is the number of untimed runs first (JIT caches, clocks, TLBs).
	Warmup int
	// Reps is the number of timed runs; Time reports their median.
	Reps int
	// FlushL2 clears a 256 MiB buffer before each timed run, outside the timed span, so
	// that no run finds its inputs in the L2 cache left there by the one before. Triton's
	// do_bench does the same.
	FlushL2 bool
}

// DefaultTimeOptions are Time's options: 10 warm-up runs, the median of 50, L2 flushed.
var DefaultTimeOptions = TimeOptions{Warmup: 10, Reps: 50, FlushL2: true}

// flushBytes is the size of the buffer that FlushL2 clears; it is larger than the L2 cache
// of any current GPU (50 MiB on an H100 or H200).
const flushBytes = 256 << 20

// Time measures fn, which should launch work on this device (Kernel.Launch), with
// DefaultTimeOptions, and returns the median GPU time of one run in milliseconds.
func (d *Device) Time(fn func() error) (ms float64, err error) {
	return d.TimeWith(fn, DefaultTimeOptions)
}

// TimeWith measures fn as Time does, with opts. Each timed run sits between two CUDA events
// recorded on the device's stream, so the times are the GPU's, not the host's.
func (d *Device) TimeWith(fn func() error, opts TimeOptions) (ms float64, err error) {
	if opts.Reps < 1 || opts.Warmup < 0 {
		return 0, fmt.Errorf("cuda: Time needs at least one run, got %+v", opts)
	}
	if opts.FlushL2 && d.flush == nil {
		if d.flush, err = d.alloc(flushBytes); err != nil {
			return 0, err
		}
	}
	for range opts.Warmup {
		if err := fn(); err != nil {
			return 0, err
		}
	}
	if err := d.Synchronize(); err != nil {
		return 0, err
	}
	a := d.api
	events := make([]uintptr, 2*opts.Reps)
	defer func() {
		err = errors.Join(err, d.with(func() error {
			var errs []error
			for _, e := range events {
				if e != 0 {
					errs = append(errs, a.check("cuEventDestroy", a.cuEventDestroy(e)))
				}
			}
			return errors.Join(errs...)
		}))
	}()
	err = d.with(func() error {
		for i := range events {
			if err := a.check("cuEventCreate", a.cuEventCreate(&events[i], eventDefault)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	record := func(e uintptr) error {
		return d.with(func() error { return a.check("cuEventRecord", a.cuEventRecord(e, d.stream)) })
	}
	for i := range opts.Reps {
		if opts.FlushL2 {
			if err := d.flush.Memset(0, flushBytes, 0); err != nil {
				return 0, err
			}
		}
		if err := record(events[2*i]); err != nil {
			return 0, err
		}
		if err := fn(); err != nil {
			return 0, err
		}
		if err := record(events[2*i+1]); err != nil {
			return 0, err
		}
	}
	times := make([]float64, opts.Reps)
	err = d.with(func() error {
		if err := a.check("cuEventSynchronize", a.cuEventSynchronize(events[len(events)-1])); err != nil {
			return err
		}
		for i := range times {
			var t float32
			if err := a.check("cuEventElapsedTime", a.cuEventElapsedTime(&t, events[2*i], events[2*i+1])); err != nil {
				return err
			}
			times[i] = float64(t)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return median(times), nil
}

// median returns the middle value of xs (the mean of the two middle values for an even
// count). It sorts xs.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
