#!/bin/bash
# The board measured as a person uses it, in tmux: idle CPU on the new-game dialog and in a
# game with the clock running, key-to-frame latency while the engine searches (level 10,
# 5+3, book off so it really searches), frame draw time, time to first frame, peak memory.
# Usage: benches/tui_latency.sh [target/release/kibitz]   (needs tmux and bc)
BIN=${1:-target/release/kibitz}
H=$(mktemp -d)
LOG=$H/frames.log
tmux kill-session -t m 2>/dev/null
tmux new-session -d -s m -x 120 -y 40 "env HOME=$H XDG_CONFIG_HOME=$H/c XDG_DATA_HOME=$H/d TERM=xterm-256color KIBITZ_FRAME_LOG=$LOG $BIN --book-policy off"
sleep 1
PID=$(pgrep -f "^$BIN --book-policy off$" | head -1)
ticks() { awk '{print $14+$15}' /proc/$PID/stat; }
HZ=$(getconf CLK_TCK)
# 1. idle on the new-game dialog, 20 s
a=$(ticks); sleep 20; b=$(ticks)
echo "idle_dialog_cpu_percent $(echo "scale=3; ($b-$a)*100/$HZ/20" | bc)"
# 2. start: play Black against level 10 at 5+3 (it thinks several seconds a move)
tmux send-keys -t m Right Down Right Right Right Right Right
sleep 0.3
tmux capture-pane -p -t m | grep -E "Play as|Level|Time" | head -3
tmux send-keys -t m Enter
sleep 0.5
# keys while the engine thinks its first move: 25 cursor moves, 100 ms apart
for i in $(seq 1 25); do tmux send-keys -t m h; sleep 0.1; done
sleep 10
tmux send-keys -t m ':' 'e5' Enter
sleep 0.3
for i in $(seq 1 25); do tmux send-keys -t m l; sleep 0.1; done
sleep 12
# 3. idle with the human to move and the clock running (ticks), 20 s
a=$(ticks); sleep 20; b=$(ticks)
echo "idle_game_clock_running_cpu_percent $(echo "scale=3; ($b-$a)*100/$HZ/20" | bc)"
tmux capture-pane -p -t m | grep -E ' 1\. | 2\. ' | sed 's/^ *.* \{10,\}//'
grep VmHWM /proc/$PID/status
tmux send-keys -t m q; sleep 0.3; tmux send-keys -t m y; sleep 1
python3 - "$LOG" <<'PY'
import sys
lat=[];draw=[];first=None
for line in open(sys.argv[1]):
    p=line.split()
    if p[0]=='first_frame_us': first=int(p[1])
    elif p[0]=='frame':
        d=dict(zip(p[1::2],map(int,p[2::2])))
        draw.append(d['draw_us'])
        if 'key_us' in d: lat.append(d['key_us'])
def q(v,x):
    v=sorted(v); return v[min(len(v)-1,int(x*len(v)))]
print(f"first_frame_ms {first/1000:.1f}")
print(f"frames {len(draw)} draw_us p50 {q(draw,.5)} p99 {q(draw,.99)}")
print(f"key_frames {len(lat)} key_to_frame_us p50 {q(lat,.5)} p99 {q(lat,.99)} max {max(lat)}")
PY
rm -rf "$H"
