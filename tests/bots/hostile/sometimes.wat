;; Hazard: faults only once in a while — traps on a hand in every 64th
;; round, plays "stand" otherwise.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.and (i32.eq (local.get $kind) (i32.const 4))
                 (i32.eqz (i32.and (i32.load (i32.const 1036)) (i32.const 63))))
      (then unreachable))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
