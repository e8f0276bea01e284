;; Hazard: grows memory by 64 KiB pages on every decision until refused.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (drop (memory.grow (i32.const 64)))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
