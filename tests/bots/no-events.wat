;; An ABI v2 bot that reads no events except under norwegian-home (code 3):
;; bets the minimum, stands, and traps if a request under another rule
;; set carries an event (the event count, a u16 at buffer + 10).
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 2)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_wants_events") (param $variant i32) (result i32)
    (i32.eq (local.get $variant) (i32.const 3)))
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (if (i32.and (i32.ne (i32.load8_u (i32.const 1027)) (i32.const 3))
                 (i32.ne (i32.load16_u (i32.const 1034)) (i32.const 0)))
      (then unreachable))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
