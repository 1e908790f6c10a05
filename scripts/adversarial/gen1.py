import sys,struct; sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__))); from pc import *
D=__import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '..', '..', 'testdata', 'adversarial', 'c', '')
def plain(**k): return [eth(0x800 if p[0]==0x45 else 0x86dd,p) for c,p in conn(**k)]
def wrap(fn,**k): return [fn(p) for c,p in conn(**k)]
E4=lambda p: eth(0x800,p)
O1=[192,168,0,1];O2=[192,168,0,2]
def vx(p,sport=50000): return E4(ip4(O1,O2,17,udp(sport,4789,b'\x08\0\0\0\0\0\x01\0'+eth(0x800,p))))
# 1 fragmented VXLAN outer
fr=[]
for c,p in conn(mss=600):
    o=ip4(O1,O2,17,udp(50000,4789,b'\x08\0\0\0\0\0\x01\0'+eth(0x800,p)),id=len(fr)+100)
    fr += [E4(x) for x in (frag4(o,400) if len(o)>500 else [o])]
pcap(D+'frag_vxlan.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 2 vxlan with src port 53 (lower port DNS)
pcap(D+'vxlan_sport53.pcap',plain(cp=1111)+[vx(p,53) for c,p in conn()]+plain(cp=2222))
# 3 fragmented GRE(IPIP) overlapping/duplicated fragments
fr=[]
for c,p in conn(mss=600):
    if len(p)>500:
        fs=frag4(p,256)
        fr += [E4(fs[0]),E4(fs[0]),E4(fs[1]),E4(fs[1]),E4(fs[2])]  # dup
    else: fr.append(E4(p))
pcap(D+'frag_dup.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 3b dup fragment after completion
fr=[]
for c,p in conn(mss=600):
    if len(p)>500:
        fs=frag4(p,256); fr += [E4(x) for x in fs]+[E4(fs[0])]
    else: fr.append(E4(p))
pcap(D+'frag_dup_after.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 3c overlapping fragments with different sizes
fr=[]
for c,p in conn(mss=600):
    if len(p)>500:
        hl=20; pl=p[20:]
        mk=lambda o,e,m: E4(ip4(p[12:16],p[16:20],6,pl[o:e],id=struct.unpack('!H',p[4:6])[0],flags=m,off=o))
        fr += [mk(0,304,1),mk(200,504,1),mk(296,len(pl),0)]
    else: fr.append(E4(p))
pcap(D+'frag_overlap.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 4 fragments 31s apart
fr=[];t=1700000000.0
for c,p in conn(mss=600):
    if len(p)>500:
        fs=frag4(p,400); fr.append((E4(fs[0]),None,t)); t+=31; fr.append((E4(fs[1]),None,t))
    else: fr.append((E4(p),None,t))
    t+=0.001
pcap(D+'frag_slow.pcap',fr)
# 5 many small fragments (>256 parts)
big=conn(mss=4000,n=1)
fr=[]
for c,p in big:
    fr += [E4(x) for x in (frag4(p,8) if len(p)>1000 else [p])]
pcap(D+'frag_many.pcap',fr)
# 6 snaplen-truncated fragments
fr=[]
for c,p in conn(mss=600):
    if len(p)>500:
        for x in frag4(p,400): e=E4(x); fr.append((e[:14+20+30],len(e)))
    else: fr.append(p and E4(p))
pcap(D+'frag_trunc.pcap',plain(cp=1111)+fr+plain(cp=2222),snap=64)
# 6b only first truncated
fr=[]
for c,p in conn(mss=600):
    if len(p)>500:
        fs=[E4(x) for x in frag4(p,400)]; fr.append((fs[0][:80],len(fs[0]))); fr+=fs[1:]
    else: fr.append(E4(p))
pcap(D+'frag_trunc_first.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 7 IPv6 fragments with ICMPv6 quoting the last fragment in between
fr=[]
for c,p in conn(mss=600,v6=True,a=A6,b=B6):
    if len(p)>500:
        fs=frag6(p,400)
        ic=struct.pack('!BBHI',2,0,0,1280)+fs[1]
        fr += [eth(0x86dd,fs[0]), eth(0x86dd,ip6(B6,A6,58,ic)), eth(0x86dd,fs[1])]
    else: fr.append(eth(0x86dd,p))
pcap(D+'icmp6_quote_frag.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 7b IPv4 ICMP quoting last fragment (nonzero offset) and first fragment
fr=[]
for c,p in conn(mss=600):
    if len(p)>500:
        fs=frag4(p,400)
        fr += [E4(fs[0]), E4(ip4(B,A,1,struct.pack('!BBHI',3,4,0,1000)+fs[0])), E4(ip4(B,A,1,struct.pack('!BBHI',11,0,0,0)+fs[1])), E4(fs[1])]
    else: fr.append(E4(p))
pcap(D+'icmp4_quote_frag.pcap',plain(cp=1111)+fr+plain(cp=2222))
# 8 quoted header lengths 8..20
for q in (8,12,15,16,17,18,19,20,24):
    fr=[]
    for i,(c,p) in enumerate(conn()):
        fr.append(E4(p))
        if i==3: fr.append(E4(ip4(B,A,1,struct.pack('!BBHI',3,4,0,1000)+p[:20+q])))
    pcap(D+'icmp_q%d.pcap'%q,plain(cp=1111)+fr+plain(cp=2222))
