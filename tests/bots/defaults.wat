;; An ABI v3 bot that leaves its bet, insurance and even money to their
;; default answers under every rule set (bits 1, 2 and 3 of
;; `pitboss_defaults`): it traps if asked any of them, and stands.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 3)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_defaults") (param $variant i32) (result i32)
    i32.const 14)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.and (i32.ge_u (local.get $kind) (i32.const 1)) (i32.le_u (local.get $kind) (i32.const 3)))
      (then unreachable))
    (i64.const 0)))
