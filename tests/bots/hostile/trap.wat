;; Hazard: traps (`unreachable`) whenever it is asked to play a hand.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.eq (local.get $kind) (i32.const 4)) (then unreachable))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
