package conformance

import (
	"fmt"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/driver/cuda"
	"github.com/gotriton/gotriton/tileir"
)

// CPUDevice returns the CPU interpreter as a Device. workers is the number of program
// instances run at once (0: all cores).
func CPUDevice(workers int) *Device {
	d := cpu.New(cpu.Options{Workers: workers})
	return &Device{
		Name:   "cpu",
		Driver: d,
		Load: func(m *tileir.Module, kernel string, numWarps, _ int) (driver.Kernel, error) {
			return d.Load(m, kernel, cpu.LoadOptions{NumWarps: numWarps})
		},
		HostDesc: func(b driver.Buffer, shape, strides []int64) (any, error) {
			return cpu.TensorDesc{Buffer: b, Shape: shape, Strides: strides}, nil
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

// PTXCompiled is a kernel compiled to PTX with the launch facts the CUDA driver needs.
type PTXCompiled struct {
	PTX  string
	Name string
	Opts cuda.LoadOptions
}

// CompilePTX lowers tile IR to PTX for sm_90. It is nil until the PTX backend (packages
// lower and ptx) can compile tile IR; the backend sets it when it lands, and until then
// CUDADevice reports that the device is not available yet.
var CompilePTX func(m *tileir.Module, kernel string, numWarps, numStages int) (*PTXCompiled, error)

// CUDADevice opens CUDA device 0 as a Device.
func CUDADevice() (*Device, error) {
	if CompilePTX == nil {
		return nil, fmt.Errorf("device cuda is not available yet: the PTX backend (packages lower and ptx) cannot compile tile IR to PTX yet; use --device cpu")
	}
	d, err := cuda.Open(0)
	if err != nil {
		return nil, err
	}
	return &Device{
		Name:   "cuda",
		Driver: d,
		Load: func(m *tileir.Module, kernel string, numWarps, numStages int) (driver.Kernel, error) {
			c, err := CompilePTX(m, kernel, numWarps, numStages)
			if err != nil {
				return nil, err
			}
			return d.LoadPTX(c.PTX, c.Name, c.Opts)
		},
		// Host descriptors need a CUtensorMap built on the host: not supported yet.
		Addr: func(b driver.Buffer) (int64, error) {
			cb, ok := b.(*cuda.Buffer)
			if !ok {
				return 0, fmt.Errorf("cuda: not a cuda buffer: %T", b)
			}
			return int64(cb.Ptr()), nil
		},
	}, nil
}

// OpenDevice opens a device by name: "cpu" or "cuda".
func OpenDevice(name string) (*Device, error) {
	switch name {
	case "", "cpu":
		return CPUDevice(0), nil
	case "cuda":
		return CUDADevice()
	}
	return nil, fmt.Errorf("unknown device %q (want cpu or cuda)", name)
}
