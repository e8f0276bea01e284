;; Hazard: not a bot at all: no pitboss_decide, no pitboss_buffer.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1))
