;; Hazard: now and then reads outside its memory — on a hand in every 64th
;; round it loads from 1 MiB past its one 64 KiB page — and plays "stand"
;; otherwise. A guard page or a bounds check must catch it alike.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.and (i32.eq (local.get $kind) (i32.const 4))
                 (i32.eqz (i32.and (i32.load (i32.const 1036)) (i32.const 63))))
      (then (drop (i64.load (i32.const 1048576)))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
