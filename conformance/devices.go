package conformance

import (
	"fmt"
	"strings"

	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/driver/cuda"
	"github.com/gotriton/gotriton/driver/simt"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// CPUDevice returns the CPU interpreter as a Device. workers is the number of program
// instances run at once (0: all cores).
func CPUDevice(workers int) *Device {
	d := cpu.New(cpu.Options{Workers: workers})
	return &Device{
		Name:   "cpu",
		Driver: d,
		Load: func(m *tileir.Module, kernel string, numWarps, _ int) (Kernel, error) {
			return withMaps(d.Load(m, kernel, cpu.LoadOptions{NumWarps: numWarps}))(nil)
		},
		HostDesc: func(d HostDescriptor) (any, error) {
			return cpu.TensorDesc{Buffer: d.Buffer, Shape: d.Shape, Strides: d.Strides}, nil
		},
		Addr: func(b driver.Buffer) (int64, error) {
			cb, ok := b.(*cpu.Buffer)
			if !ok {
				return 0, fmt.Errorf("cpu: not a cpu buffer: %T", b)
			}
			return cb.Addr(), nil
		},
	}
}

// CUDADevice opens CUDA device 0 as a Device. Kernels are compiled for the device's own
// architecture, to PTX by gotriton's emitter, or by llc-22 when viaLLC is set.
func CUDADevice(viaLLC bool) (*Device, error) {
	return cudaDevice(func(d *cuda.Device) loadFunc {
		return func(m *tileir.Module, kernel string, numWarps, numStages int) (Kernel, error) {
			t, err := target.Parse(cudaTarget(d))
			if err != nil {
				return Kernel{}, err
			}
			r := &compiler.Result{Kernel: kernel, Target: t, NumWarps: numWarps, NumStages: numStages, TileIR: m}
			if err := r.Backend(compiler.PTX, viaLLC, ""); err != nil {
				return Kernel{}, err
			}
			return withMaps(d.LoadPTX(r.PTX, kernel, cuda.LoadOptions{
				NumWarps:            r.Meta.NumWarps,
				SharedBytes:         r.Meta.SharedBytes,
				GlobalScratchBytes:  r.Meta.GlobalScratchSize,
				ProfileScratchBytes: r.Meta.ProfileScratchSize,
			}))(r.Meta.TensorMaps)
		}
	})
}

// CUDADevicePTX opens CUDA device 0 as a Device that loads the PTX of p (made by
// --dump-ptx, possibly --via-llc on another machine) instead of compiling any. The runner
// that uses it must be attached to p (p.Attach). p's target must be the device's own.
func CUDADevicePTX(p *PTXDir) (*Device, error) {
	var opened *cuda.Device
	dev, err := cudaDevice(func(d *cuda.Device) loadFunc {
		opened = d
		return PTXDirLoad(p, func(text, kernel string, meta PTXMeta) (driver.Kernel, error) {
			return d.LoadPTX(text, kernel, cuda.LoadOptions{
				NumWarps:            meta.NumWarps,
				SharedBytes:         meta.SharedBytes,
				GlobalScratchBytes:  meta.GlobalScratchBytes,
				ProfileScratchBytes: meta.ProfileScratchBytes,
			})
		})
	})
	if err != nil {
		return nil, err
	}
	if want := cudaTarget(opened); p.Target != "" && p.Target != want {
		dev.Driver.Close()
		return nil, fmt.Errorf("--ptx-dir %s: its PTX is for %s, this device is %s (dump it with --ptx-target %s)", p.Dir, p.Target, want, want)
	}
	return dev, nil
}

// PTXDirLoad is the Load of a device that takes its PTX from p: it finds the module's
// PTX and metadata and hands them to loadPTX. A fake device in tests uses it too.
func PTXDirLoad(p *PTXDir, loadPTX func(text, kernel string, meta PTXMeta) (driver.Kernel, error)) loadFunc {
	return func(m *tileir.Module, kernel string, _, _ int) (Kernel, error) {
		text, meta, err := p.Find(m)
		if err != nil {
			return Kernel{}, err
		}
		return withMaps(loadPTX(text, kernel, meta))(meta.TensorMaps)
	}
}

type loadFunc = func(m *tileir.Module, kernel string, numWarps, numStages int) (Kernel, error)

// withMaps pairs a driver's loaded kernel (or its error) with the kernel's tensor maps.
func withMaps(k driver.Kernel, err error) func(maps []lower.TensorMap) (Kernel, error) {
	return func(maps []lower.TensorMap) (Kernel, error) {
		if err != nil {
			return Kernel{}, err
		}
		return Kernel{Kernel: k, TensorMaps: maps}, nil
	}
}

func cudaTarget(d *cuda.Device) string { return fmt.Sprintf("cuda:%d:32", d.Capability()) }

// cudaDevice opens CUDA device 0 with the Load that load makes for it.
func cudaDevice(load func(d *cuda.Device) loadFunc) (*Device, error) {
	d, err := cuda.Open(0)
	if err != nil {
		return nil, err
	}
	t, err := target.Parse(cudaTarget(d))
	hasTMA := err == nil && t.HasTMA()
	return &Device{
		Name:   "cuda",
		Target: cudaTarget(d),
		Driver: d,
		Load:   load(d),
		// A host descriptor is a CUtensorMap where the device has TMA (Triton 3.6's ABI),
		// else the tensor's global address (gotriton's fallback; see package lower); the
		// runner passes its shape and strides as the parameters after it.
		HostDesc: func(hd HostDescriptor) (any, error) {
			cb, ok := hd.Buffer.(*cuda.Buffer)
			if !ok {
				return nil, fmt.Errorf("cuda: not a cuda buffer: %T", hd.Buffer)
			}
			if len(hd.Shape) != len(hd.Strides) {
				return nil, fmt.Errorf("cuda: descriptor with %d dimensions and %d strides", len(hd.Shape), len(hd.Strides))
			}
			if hasTMA {
				return d.EncodeTensorMap(cb, string(hd.DType), hd.Shape, hd.Strides, hd.Block, hd.Swizzle)
			}
			return cb.Ptr(), nil
		},
		Addr: func(b driver.Buffer) (int64, error) {
			cb, ok := b.(*cuda.Buffer)
			if !ok {
				return 0, fmt.Errorf("cuda: not a cuda buffer: %T", b)
			}
			return int64(cb.Ptr()), nil
		},
		Recover: func() (error, error) {
			fault := d.Fault()
			if fault == nil {
				return nil, nil
			}
			return fault, d.Reset()
		},
	}, nil
}

// SimDevice returns the SIMT interpreter (driver/simt) as a Device: kernels are lowered
// to LLVM IR for tgt (an NVIDIA target such as "cuda:90:32", "nv-sim", or an AMD one
// such as "hip:gfx942:64", "amd-sim") and that IR runs without a GPU. workers is the
// number of programs run at once (0: all cores).
func SimDevice(tgt string, workers int) (*Device, error) {
	t, err := target.Parse(tgt)
	if err != nil {
		return nil, err
	}
	name, table := "nv-sim", simt.NVIDIA
	switch {
	case t.Backend == target.HIP:
		name, table = "amd-sim", simt.AMD
	case !t.IsNVIDIA():
		return nil, fmt.Errorf("simulated device: target %s: only NVIDIA and AMD LLVM IR run in the simulator", tgt)
	}
	d := simt.New(table, simt.Options{Workers: workers})
	return &Device{
		Name:   name,
		Target: t.String(),
		Driver: d,
		Load: func(m *tileir.Module, kernel string, numWarps, numStages int) (Kernel, error) {
			r := &compiler.Result{Kernel: kernel, Target: t, NumWarps: numWarps, NumStages: numStages, TileIR: m}
			if err := r.Backend(compiler.LLVM, false, ""); err != nil {
				return Kernel{}, err
			}
			return withMaps(d.Load(r.LLVM, kernel, simt.LoadOptions{
				NumWarps:            r.Meta.NumWarps,
				SharedBytes:         r.Meta.SharedBytes,
				GlobalScratchBytes:  r.Meta.GlobalScratchSize,
				ProfileScratchBytes: r.Meta.ProfileScratchSize,
			}))(r.Meta.TensorMaps)
		},
		// As on a GPU: a TMA target takes a tensor map (the simulator's own encoding), an
		// older one the tensor's address, followed by its shape and strides.
		HostDesc: func(hd HostDescriptor) (any, error) {
			b, ok := hd.Buffer.(*simt.Buffer)
			if !ok {
				return nil, fmt.Errorf("%s: not a simt buffer: %T", name, hd.Buffer)
			}
			if t.HasTMA() {
				return simt.NewTensorMap(b, hd.DType.Size(), hd.Shape, hd.Strides, hd.Block, hd.Swizzle)
			}
			return b, nil
		},
		Addr: func(b driver.Buffer) (int64, error) {
			sb, ok := b.(*simt.Buffer)
			if !ok {
				return 0, fmt.Errorf("%s: not a simt buffer: %T", name, b)
			}
			return int64(sb.Addr()), nil
		},
	}, nil
}

// OpenDevice opens a device by name: "cpu", "cuda", "nv-sim" (the SIMT interpreter of
// the sm_90 LLVM IR; "nv-sim:80" for sm_80's) or "amd-sim" (of the gfx942 LLVM IR;
// "amd-sim:gfx90a" for gfx90a's). viaLLC applies to cuda.
func OpenDevice(name string, viaLLC bool) (*Device, error) {
	switch name {
	case "", "cpu":
		return CPUDevice(0), nil
	case "cuda":
		return CUDADevice(viaLLC)
	case "nv-sim":
		return SimDevice("cuda:90:32", 0)
	case "amd-sim":
		return SimDevice("hip:gfx942:64", 0)
	}
	if arch, ok := strings.CutPrefix(name, "nv-sim:"); ok {
		return SimDevice("cuda:"+arch+":32", 0)
	}
	if arch, ok := strings.CutPrefix(name, "amd-sim:"); ok {
		return SimDevice("hip:"+arch+":64", 0)
	}
	return nil, fmt.Errorf("unknown device %q (want cpu, cuda, nv-sim, nv-sim:ARCH, amd-sim or amd-sim:ARCH)", name)
}
