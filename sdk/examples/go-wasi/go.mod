module pitboss-go-wasi-bot

go 1.24
