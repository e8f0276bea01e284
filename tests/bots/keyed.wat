;; An ABI v4 bot that reads no events and declares that its act depends on
;; nothing (`pitboss_decision_key` = 0 for act, -1 for the rest): the host
;; then asks it one act a session and gives every later act that answer.
;; It answers hit to its first act and stand to every other, so a table
;; where it hits every time was answered from the host's keys.
(module
  (memory (export "memory") 1)
  (global $acts (mut i32) (i32.const 0))
  (func (export "pitboss_abi_version") (result i32) i32.const 4)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_wants_events") (param $variant i32) (result i32) i32.const 0)
  (func (export "pitboss_decision_key") (param $variant i32) (param $kind i32) (result i32)
    (if (result i32) (i32.eq (local.get $kind) (i32.const 4)) (then i32.const 0) (else i32.const -1)))
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.eq (local.get $kind) (i32.const 1)) (then (return (i64.load (i32.const 1056)))))
    (if (i32.eq (local.get $kind) (i32.const 4))
      (then
        (global.set $acts (i32.add (global.get $acts) (i32.const 1)))
        (return (select (i64.const 1) (i64.const 0) (i32.eq (global.get $acts) (i32.const 1))))))
    (i64.const 0)))
