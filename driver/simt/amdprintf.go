package simt

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
)

// HIP's buffered printf, as the HIP runtime (ROCm's CLR, PrintfDbg) serves it: a launch of
// a kernel whose module lists formats in llvm.printf.fmts gets a buffer, passed in the
// implicit argument hidden_printf_buffer, whose header holds the bytes of frames written
// so far and the size of the area after the header. After the kernel the frames are
// printed in buffer order, each a control dword (its size << 2, bit 1 for a constant
// format), the format's 64-bit hash and the arguments in 8-byte slots. As on the GPU, a
// frame that no longer fits is dropped by the kernel.
const (
	// printfBufferArg is hidden_printf_buffer's offset in code object v5's implicit
	// arguments.
	printfBufferArg = 72
	// printfBufferBytes is CLR's default buffer: 4 KiB per work-item of a 1024-wide group.
	printfBufferBytes = 4096 * 1024
	printfHeaderBytes = 8
	printfFormatsMD   = "llvm.printf.fmts"
)

// printfFormats reads the module's llvm.printf.fmts entries, "0:0:<hash in hex>,<format>",
// into formats by hash; nil when the module has none.
func printfFormats(m *ir.Module) (map[uint64]string, error) {
	md, ok := m.NamedMetadataDefs[printfFormatsMD]
	if !ok {
		return nil, nil
	}
	formats := map[uint64]string{}
	for i, n := range md.Nodes {
		var s *metadata.String
		if t, ok := n.(*metadata.Tuple); ok && len(t.Fields) == 1 {
			s, _ = t.Fields[0].(*metadata.String)
		}
		var hash, format string
		if s != nil {
			hash, format, ok = strings.Cut(strings.TrimPrefix(s.Value, "0:0:"), ",")
		}
		h, err := strconv.ParseUint(hash, 16, 64)
		if s == nil || !ok || err != nil || !strings.HasPrefix(s.Value, "0:0:") {
			return nil, fmt.Errorf("!%s entry %d is not one string \"0:0:<hash>,<format>\"", printfFormatsMD, i)
		}
		formats[h] = format
	}
	return formats, nil
}

// newPrintfBuffer allocates a launch's printf buffer with its header and puts its address
// in the implicit arguments.
func (k *Kernel) newPrintfBuffer(implicit []byte) (*Buffer, error) {
	b, err := k.d.alloc(printfBufferBytes)
	if err != nil {
		return nil, err
	}
	binary.LittleEndian.PutUint32(b.data[4:], printfBufferBytes-printfHeaderBytes)
	binary.LittleEndian.PutUint64(implicit[printfBufferArg:], b.Addr())
	return b, nil
}

// printFrames formats the frames of buffer b, as the NVIDIA path's vprintf does, and
// writes them to the device's output.
func (k *Kernel) printFrames(b *Buffer) error {
	used := int(binary.LittleEndian.Uint32(b.data))
	data := b.data[printfHeaderBytes:]
	if used > len(data) {
		return fmt.Errorf("simt: @%s: the printf buffer's header says %d bytes, it has %d", k.name, used, len(data))
	}
	var out strings.Builder
	for pos := 0; pos < used; {
		text, size, err := k.frame(data[pos:used])
		if err != nil {
			return fmt.Errorf("simt: @%s: printf frame at byte %d: %v", k.name, pos, err)
		}
		out.WriteString(text)
		pos += size
	}
	k.d.outMu.Lock()
	defer k.d.outMu.Unlock()
	_, err := k.d.out.Write([]byte(out.String()))
	return err
}

// frame formats the frame at the start of data and returns its text and size.
func (k *Kernel) frame(data []byte) (string, int, error) {
	if len(data) < 12 {
		return "", 0, fmt.Errorf("%d bytes left, too few for a frame", len(data))
	}
	ctrl := binary.LittleEndian.Uint32(data)
	size := int(ctrl >> 2)
	switch {
	case ctrl&2 == 0:
		return "", 0, fmt.Errorf("control dword %#x: a format string in the frame is not supported", ctrl)
	case size < 12 || size > len(data) || (size-12)%8 != 0:
		return "", 0, fmt.Errorf("control dword %#x: a %d-byte frame of %d bytes left", ctrl, size, len(data))
	}
	hash := binary.LittleEndian.Uint64(data[4:])
	format, ok := k.printf[hash]
	if !ok {
		return "", 0, fmt.Errorf("no format of hash %x in !%s", hash, printfFormatsMD)
	}
	args := data[12:size]
	text, n, err := k.d.formatArgs(format, func(bytes uint64) (uint64, error) {
		if len(args) < 8 {
			return 0, fmt.Errorf("format %q reads more arguments than the frame holds", format)
		}
		v := binary.LittleEndian.Uint64(args) & mask(int(8*bytes))
		args = args[8:]
		return v, nil
	})
	if err == nil && len(args) > 0 {
		err = fmt.Errorf("format %q reads %d arguments, the frame holds %d", format, n, n+len(args)/8)
	}
	return text, size, err
}
