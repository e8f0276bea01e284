;; Hazard: ABI v3's optional export claims to leave every act to a default
;; (bit 4), which has none: refused at load.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 3)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_defaults") (param $variant i32) (result i32) i32.const 16)
  (func (export "pitboss_decide") (param $kind i32) (result i64) i64.const 0))
