module github.com/gotriton/gotriton

go 1.26
