module example.com/integration

go 1.26
