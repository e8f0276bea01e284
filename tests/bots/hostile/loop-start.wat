;; Hazard: an endless loop in the start function, run at instantiation.
(module
  (memory (export "memory") 1)
  (func $init (loop $forever (br $forever)))
  (start $init)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64) i64.const 0))
