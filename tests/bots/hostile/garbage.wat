;; Hazard: nonsense answers. Every other round it bets 3 chips (off the
;; 2-chip unit: refused, sits out); otherwise it bets the minimum, insures
;; 99 chips (out of range) and answers action 77 (no such action).
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.eq (local.get $kind) (i32.const 1))
      (then
        ;; round number: u32 at buffer + 12
        (if (i32.and (i32.load (i32.const 1036)) (i32.const 1))
          (then (return (i64.const 3)))
          (else (return (i64.load (i32.const 1056)))))))
    (if (i32.eq (local.get $kind) (i32.const 2)) (then (return (i64.const 99))))
    (if (i32.eq (local.get $kind) (i32.const 4)) (then (return (i64.const 77))))
    (i64.const 0)))
