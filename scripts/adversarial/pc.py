# crafted-capture helpers (stdlib only)
import struct
def csum(b):
    if len(b)%2: b+=b'\0'
    s=sum(struct.unpack('!%dH'%(len(b)//2),b)); s=(s>>16)+(s&0xffff); s+=s>>16
    return (~s)&0xffff
def ip4(src,dst,proto,payload,id=1,flags=0,off=0,ttl=64,opts=b'',tlen=None):
    hl=20+len(opts)
    h=struct.pack('!BBHHHBBH4s4s',0x40|(hl//4),0,tlen if tlen is not None else hl+len(payload),id,(flags<<13)|(off//8),ttl,proto,0,bytes(src),bytes(dst))+opts
    h=h[:10]+struct.pack('!H',csum(h))+h[12:]
    return h+payload
def ip6(src,dst,nh,payload,plen=None):
    return struct.pack('!IHBB16s16s',0x60000000,len(payload) if plen is None else plen,nh,64,bytes(src),bytes(dst))+payload
def tcp(sp,dp,seq,ack,flags,payload=b'',win=64000,opts=b''):
    hl=20+len(opts)
    return struct.pack('!HHIIBBHHH',sp,dp,seq,ack,(hl//4)<<4,flags,win,0,0)+opts+payload
def udp(sp,dp,payload,ulen=None):
    return struct.pack('!HHHH',sp,dp,8+len(payload) if ulen is None else ulen,0)+payload
def eth(et,payload,dst=b'\x00\x11\x22\x33\x44\x55',src=b'\x00\x66\x77\x88\x99\xaa'):
    return dst+src+struct.pack('!H',et)+payload
A=[10,0,0,1];B=[10,0,0,2]
A6=[0x20,1,0xd,0xb8]+[0]*11+[1];B6=[0x20,1,0xd,0xb8]+[0]*11+[2]
SYN,ACK,FIN,PSH=2,16,1,8
def conn(cp=40000,sp=80,n=3,mss=100,mk=None,a=A,b=B,v6=False,iss=1000,irs=5000):
    """returns list of (fromcli, ip packet)"""
    out=[]
    def add(c,seq,ack,fl,pl):
        s,d,p1,p2=(a,b,cp,sp) if c else (b,a,sp,cp)
        t=tcp(p1,p2,seq,ack,fl,b'\x00'*pl, opts=(b'\x02\x04\x05\xb4' if fl&SYN else b''))
        out.append((c, ip6(s,d,6,t) if v6 else ip4(s,d,6,t,id=len(out)+1)))
    add(1,iss,0,SYN,0); add(0,irs,iss+1,SYN|ACK,0); add(1,iss+1,irs+1,ACK,0)
    for i in range(n):
        seq=iss+1+i*mss; add(1,seq,irs+1,ACK|PSH,mss); add(0,irs+1,seq+mss,ACK,0)
    e=iss+1+n*mss
    add(1,e,irs+1,FIN|ACK,0); add(0,irs+1,e+1,FIN|ACK,0); add(1,e+1,irs+2,ACK,0)
    return out
def pcap(path,frames,linktype=1,snap=65535,t0=1700000000):
    """frames: list of bytes or (bytes, origlen) or (bytes,origlen,time)"""
    with open(path,'wb') as f:
        f.write(struct.pack('<IHHiIII',0xa1b2c3d4,2,4,0,0,snap,linktype))
        for i,fr in enumerate(frames):
            tm=t0+i*0.001; ol=None
            if isinstance(fr,tuple):
                if len(fr)==3: fr,ol,tm=fr
                else: fr,ol=fr
            if ol is None: ol=len(fr)
            f.write(struct.pack('<IIII',int(tm),int(round((tm-int(tm))*1e6)),len(fr),ol)+fr)
def frag4(ippkt,size,id=None):
    hl=(ippkt[0]&15)*4; h=ippkt[:hl]; pl=ippkt[hl:]
    src,dst,proto=h[12:16],h[16:20],h[9]
    if id is None: id=struct.unpack('!H',h[4:6])[0]
    out=[]
    for o in range(0,len(pl),size):
        out.append(ip4(src,dst,proto,pl[o:o+size],id=id,flags=1 if o+size<len(pl) else 0,off=o,opts=h[20:]))
    return out
def frag6(ippkt,size,id=77):
    nh=ippkt[6]; pl=ippkt[40:]; out=[]
    for o in range(0,len(pl),size):
        m=1 if o+size<len(pl) else 0
        fh=struct.pack('!BBHI',nh,0,o|m,id)
        out.append(ip6(ippkt[8:24],ippkt[24:40],44,fh+pl[o:o+size]))
    return out
