package tileir

import (
	"os"
	"testing"
)

const benchFile = "testdata/triton/attention.attn_bwd_kernel.default.ttir"

func benchModule(b *testing.B) (*Module, string) {
	src, err := os.ReadFile(benchFile)
	if err != nil {
		b.Fatal(err)
	}
	m, err := Parse(benchFile, string(src))
	if err != nil {
		b.Fatal(err)
	}
	return m, string(src)
}

func BenchmarkPrint(b *testing.B) {
	m, _ := benchModule(b)
	b.SetBytes(int64(len(m.String())))
	for b.Loop() {
		_ = m.String()
	}
}

func BenchmarkParse(b *testing.B) {
	_, src := benchModule(b)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(benchFile, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	m, _ := benchModule(b)
	for b.Loop() {
		if err := Verify(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPipeline(b *testing.B) {
	_, src := benchModule(b)
	for b.Loop() {
		m, _ := Parse(benchFile, src)
		if err := Run(m, []string{"canonicalize", "cse", "licm", "dce"}, false); err != nil {
			b.Fatal(err)
		}
	}
}
