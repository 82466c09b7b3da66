#!/usr/bin/env python3
"""Blank lines flat out (issue #24, Found 3): 8 connections, each from its own
address (127.0.0.2-9), send "\\n" as fast as ghostd takes it for 8 s while a
probe from 127.0.0.20 sends PING every 50 ms. Prints ghostd's CPU share,
how many flooders it closed with BYE flood, and the probe's round trips.

    scripts/bench-blank-flood.py .build/release/ghostd [extra ghostd flags]

Run from the repository (it passes --dictionaries Dictionaries).
"""
import os, socket, subprocess, sys, tempfile, time, threading
ghostd=sys.argv[1]; extra=sys.argv[2:]
data=tempfile.mkdtemp()
s=socket.socket(); s.bind(("127.0.0.1",0)); port=s.getsockname()[1]; s.close()
log=open(data+"/log","w")
p=subprocess.Popen([ghostd,"--port",str(port),"--data",data,"--durability","normal","--dictionaries","Dictionaries"]+extra,stderr=log)
time.sleep(1.5)
def cpu():
    f=open("/proc/%d/stat"%p.pid).read().split(")")[1].split()
    return (int(f[11])+int(f[12]))/os.sysconf("SC_CLK_TCK")
stop=False
def flood(src):
    c=socket.create_connection(("127.0.0.1",port), source_address=(src,0)); c.setblocking(False)
    chunk=b"\n"*65536
    while not stop:
        try: c.send(chunk)
        except BlockingIOError: time.sleep(0.001)
        except OSError: return
        try:
            while c.recv(65536): pass
        except BlockingIOError: pass
        except OSError: return
ts=[threading.Thread(target=flood,args=("127.0.0.%d"%(2+i),)) for i in range(8)]
c0=cpu(); t0=time.time()
for t in ts: t.start()
# probe: PING round trips from another address
probe=socket.create_connection(("127.0.0.1",port), source_address=("127.0.0.20",0)); probe.recv(4096)
lat=[]
while time.time()-t0<8:
    a=time.time(); probe.sendall(b"PING\n"); probe.recv(4096); lat.append(time.time()-a); time.sleep(0.05)
used=cpu()-c0; el=time.time()-t0
stop=True
for t in ts: t.join()
p.terminate(); p.wait(); log.close()
fl=sum(1 for l in open(data+"/log") if "closed: flood" in l)
lat.sort()
print("8 blank-line flooders, %.0f s: ghostd CPU %.0f%%, %d closed with BYE flood; probe PING median %.1f ms, p99 %.1f ms" % (el, 100*used/el, fl, 1000*lat[len(lat)//2], 1000*lat[int(len(lat)*0.99)]))
