;; Hazard: an endless loop in start-up code the host must call
;; (`pitboss_buffer`), with no start function to spot at load time.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) (loop $forever (br $forever)) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64) i64.const 0))
