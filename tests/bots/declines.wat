;; An ABI v3 bot that declines insurance and even money under every rule
;; set (bits 2 and 3 of `pitboss_declines`): it traps if asked either,
;; bets the minimum and stands.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 3)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_declines") (param $variant i32) (result i32)
    i32.const 12)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.or (i32.eq (local.get $kind) (i32.const 2)) (i32.eq (local.get $kind) (i32.const 3)))
      (then unreachable))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
