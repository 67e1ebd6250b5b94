// Command gotriton compiles, checks and runs Triton kernels without Python or a GPU.
//
// Run `gotriton help` for the commands. Every command reports errors as
// `file:line:col: error: message`, followed by the source line and a caret, and exits 1.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v3"
)

// version is gotriton's version and the Triton release whose semantics it follows.
const version = "0.1.0 (Triton 3.6 semantics)"

// versionText is version and, when the build stamped it (go build's -buildvcs, on by
// default in a git checkout), the commit it was built from: "commit 050d407", with
// "-dirty" for uncommitted changes. The GPU scripts record it beside their figures.
func versionText(info *debug.BuildInfo) string {
	rev, dirty := "", false
	if info != nil {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if rev == "" {
		return version
	}
	rev = rev[:min(7, len(rev))]
	if dirty {
		rev += "-dirty"
	}
	return version + ", commit " + rev
}

// buildInfo is the binary's build information, nil when it has none.
func buildInfo() *debug.BuildInfo {
	info, _ := debug.ReadBuildInfo()
	return info
}

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// run executes the CLI with args and returns the process exit code; tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := &cli.Command{
		Name:      "gotriton",
		Usage:     "compile, check and run Triton kernels without Python",
		Version:   versionText(buildInfo()),
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{
			parseCommand(),
			listCommand(),
			checkCommand(),
			compileCommand(),
			linkCommand(),
			runCommand(),
			conformanceCommand(),
			benchCommand(),
		},
		// Errors are printed once, by run, never by the library's exit handler.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
	}
	quietUsageErrors(app)
	if err := app.Run(ctx, args); err != nil {
		if err != errReported {
			fmt.Fprintln(stderr, err)
		}
		return 1
	}
	return 0
}

// quietUsageErrors makes a bad flag or argument report one line, through run, instead of
// the library's help page.
func quietUsageErrors(c *cli.Command) {
	c.OnUsageError = func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
		return fmt.Errorf("gotriton %s: %v (see gotriton %s --help)", cmd.Name, err, cmd.Name)
	}
	for _, sub := range c.Commands {
		quietUsageErrors(sub)
	}
}
