package frontend

import "fmt"

func fmtSscanf(s string, major, minor *int) (int, error) {
	return fmt.Sscanf(s, "version %d.%d", major, minor)
}
