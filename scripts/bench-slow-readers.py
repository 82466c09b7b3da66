#!/usr/bin/env python3
"""Slow readers (issue #24, Found 10): N connections from 127.0.0.1 each ask
for HELP (about 1.5 KB of replies) every 10 ms. For 3 s they read
everything (epoll), so that the kernel grows their sockets' buffers
(autotuning: up to 4 MB on ghostd's sending side); then for 6 s they stop
reading and keep asking. Sampled meanwhile: the bytes in the send queues of
ghostd's sockets (/proc/net/tcp tx_queue, what SIOCOUTQ counts) and the
kernel's TCP memory (/proc/net/sockstat); at the end, how many connections
ghostd dropped with output-overflow.

    scripts/bench-slow-readers.py .build/release/ghostd N [ghostd flags]

All come from one address, so lift the budget and the limits by network:
    --max-commands-per-second 0 --max-clients-per-ip 0
    --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0
(a ghostd from before #24 takes only the first two). Run from the
repository (it passes --dictionaries Dictionaries). Past a few hundred
readers this Python client cannot read fast enough in the first phase for
the buffers to grow, and every build drops them all early.
"""
import os, socket, subprocess, sys, tempfile, time, select
ghostd=sys.argv[1]; n=int(sys.argv[2]); extra=sys.argv[3:]
WARM, HOLD = 3.0, 6.0
data=tempfile.mkdtemp()
s=socket.socket(); s.bind(("127.0.0.1",0)); port=s.getsockname()[1]; s.close()
log=open(data+"/log","w")
p=subprocess.Popen([ghostd,"--port",str(port),"--data",data,"--durability","normal","--dictionaries","Dictionaries",
  "--max-clients","20000","--idle-timeout","0","--name-timeout","0"]+extra,stderr=log)
time.sleep(1.5)
socks=[]
for i in range(n):
    c=socket.create_connection(("127.0.0.1",port)); c.setblocking(False); socks.append(c)
ep=select.epoll()
for i,c in enumerate(socks): ep.register(c.fileno(), select.EPOLLIN)
def sendq():
    t=0
    for line in open("/proc/net/tcp").readlines()[1:]:
        f=line.split()
        if f[1].endswith(":%04X"%port) and f[3]=="01": t+=int(f[4].split(":")[0],16)
    return t
def tcpmem():
    for line in open("/proc/net/sockstat"):
        if line.startswith("TCP:"):
            x=line.split(); return int(x[x.index("mem")+1])*4096
t0=time.time(); peakq=peakm=0; lastask=0
while time.time()-t0<WARM+HOLD:
    now=time.time(); warm=now-t0<WARM
    if now-lastask>0.01:
        lastask=now
        for c in socks:
            try: c.send(b"HELP\n")
            except (BlockingIOError, OSError): pass
    if warm:
        for fd,ev in ep.poll(0.005):
            c=socket.socket(fileno=os.dup(fd))
            try:
                while c.recv(1<<20): pass
            except (BlockingIOError, OSError): pass
            c.close()
    else:
        time.sleep(0.005)
        q=sendq(); peakq=max(peakq,q); peakm=max(peakm,tcpmem())
p.terminate(); p.wait(); log.close()
dropped=sum(1 for l in open(data+"/log") if "closed: output-overflow" in l)
print("%d slow readers: peak %.1f MB in ghostd's send queues, peak %.1f MB kernel TCP memory, %d dropped (output-overflow)"%(n,peakq/1e6,peakm/1e6,dropped))
