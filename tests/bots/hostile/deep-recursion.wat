;; Hazard: unbounded recursion when playing a hand: overflows the wasm stack.
(module
  (memory (export "memory") 1)
  (func $down (param $n i64) (result i64)
    (i64.add (call $down (i64.add (local.get $n) (i64.const 1))) (i64.const 1)))
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.eq (local.get $kind) (i32.const 4)) (then (drop (call $down (i64.const 0)))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
