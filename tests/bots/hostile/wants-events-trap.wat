;; Hazard: ABI v2's optional export traps as the bot starts.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 2)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_wants_events") (param i32) (result i32) unreachable)
  (func (export "pitboss_decide") (param $kind i32) (result i64) i64.const 0))
