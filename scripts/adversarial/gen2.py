import sys,struct; sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__))); from pc import *
D=__import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '..', '..', 'testdata', 'adversarial', 'd', '')
E4=lambda p: eth(0x800,p)
O1=[192,168,0,1];O2=[192,168,0,2]
def plain(cp): return [E4(p) for c,p in conn(cp=cp)]
def case(name,fn,lt=1,pre=None,post=None):
    # plain conns are ethernet; for other link types wrap them via fn too? use fn on both plain conns with different ports
    fr=[fn(p) for c,p in conn(cp=1111)]+[fn(p) for c,p in conn()]+[fn(p) for c,p in conn(cp=2222)]
    pcap(D+name+'.pcap',fr,linktype=lt)
def case_mid(name,fn,lt=1,plainfn=None):
    pf=plainfn or (lambda p:p)
    fr=[pf(p) for c,p in conn(cp=1111)]+[fn(p) for c,p in conn()]+[pf(p) for c,p in conn(cp=2222)]
    pcap(D+name+'.pcap',fr,linktype=lt)
SNAP=lambda p: b'\xaa\xaa\x03\0\0\0\x08\x00'+p
def d11(p,fc0=0x88,fc1=0x01,extra=b'\0\0'):
    n=24+(6 if fc1&3==3 else 0)
    return bytes([fc0,fc1])+b'\0'*(n-2)+extra+SNAP(p)
# 802.11 QoS + 4 addresses + HT (order bit)
case('dot11_ds3_qos_ht',lambda p: d11(p,0x88,0x83,b'\0\0'+b'\0'*4),lt=105)
# 802.11 QoS with A-MSDU bit
def amsdu(p):
    sub=b'\0'*12+struct.pack('!H',8+len(p))+SNAP(p)
    return bytes([0x88,0x01])+b'\0'*22+b'\x80\x00'+sub
case_mid('dot11_amsdu',amsdu,lt=105,plainfn=lambda p:d11(p))
# radiotap with data pad flag (0x20) + QoS data (26-byte header -> pad 2)
def rt(p,present=0x2,fields=b'\x20',hdr=None):
    body=d11(p) if hdr is None else hdr(p)
    h=struct.pack('<BBHI',0,0,8+len(fields),present)+fields
    return h+body
def padded(p): return bytes([0x88,0x01])+b'\0'*22+b'\0\0'+b'\0\0'+SNAP(p)
case_mid('radiotap_datapad',lambda p: rt(p,0x2,b'\x20',padded),lt=127,plainfn=lambda p: rt(p,0x2,b'\x00'))
# radiotap extended present bitmaps (3 words) + TSFT + flags FCS
def rtext(p):
    pres=struct.pack('<III',0x80000003,0x80000000,0x00000000)
    f=b'\0'*4+struct.pack('<Q',0)+b'\x10'   # pad to 8 after 12+... header 4+12=16 ->TSFT at16
    h=struct.pack('<BBH',0,0,4+len(pres)+len(f)-4+0)
    body=d11(p)+b'\xde\xad\xbe\xef'
    hdr=struct.pack('<BBH',0,0,0)+pres  # 16 bytes
    fields=struct.pack('<Q',0)+b'\x10'+b'\0'
    full=hdr+fields; full=full[:2]+struct.pack('<H',len(full))+full[4:]
    return full+body
case_mid('radiotap_ext_fcs',rtext,lt=127,plainfn=lambda p: rt(p,0x2,b'\x00'))
# NFLOG
def nfl(p,fam=2,attrs=None):
    a=attrs(p) if attrs else struct.pack('<HH',4+len(p),9)+p
    return bytes([fam,0,0,0])+a
def tlv(t,v,n=None): 
    n=4+len(v) if n is None else n
    b=struct.pack('<HH',n,t)+v; return b+b'\0'*((-len(b))%4)
case_mid('nflog_fam0',lambda p: nfl(p,0),lt=239,plainfn=nfl)
case_mid('nflog_two_payloads',lambda p: nfl(p,2,lambda p: tlv(9,b'\x45'+b'\0'*30)+tlv(9,p)),lt=239,plainfn=nfl)
case_mid('nflog_payload_toolong',lambda p: nfl(p,2,lambda p: struct.pack('<HH',4+len(p)+100,9)+p),lt=239,plainfn=nfl)
case_mid('nflog_attr_len2',lambda p: nfl(p,2,lambda p: struct.pack('<HH',2,1)+b'\0\0'+tlv(9,p)),lt=239,plainfn=nfl)
case_mid('nflog_attr_len0',lambda p: nfl(p,2,lambda p: struct.pack('<HH',0,1)+tlv(9,p)),lt=239,plainfn=nfl)
case_mid('nflog_attr_overrun',lambda p: nfl(p,2,lambda p: struct.pack('<HH',4000,1)+tlv(9,p)),lt=239,plainfn=nfl)
case_mid('nflog_payload_odd',lambda p: nfl(p,2,lambda p: tlv(5,b'\x01\x02\x03')+tlv(9,p)),lt=239,plainfn=nfl)
case_mid('nflog_v6fam_v4pkt',lambda p: nfl(p,10),lt=239,plainfn=nfl)
# GTP-U
def gtp(p,flags=0x30,ext=b'',seqnpdu_next=None):
    body=ext+p
    if flags&7: body=(seqnpdu_next or b'\0\0\0\0')+body
    return E4(ip4(O1,O2,17,udp(2152,2152,struct.pack('!BBHI',flags,0xff,len(body),1)+body)))
# ext chain: next=0x85 len=1 -> next=0x85 len=1 -> 0
case_mid('gtp_ext_chain',lambda p: gtp(p,0x34,b'\x01\0\0\x85'+b'\x01\0\0\x00',b'\0\0\0\x85'),plainfn=E4)
case_mid('gtp_ext_overrun',lambda p: gtp(p,0x34,b'\xff\0\0\x85',b'\0\0\0\x85'),plainfn=E4)
case_mid('gtp_ext_len0',lambda p: gtp(p,0x34,b'\x00\0\0\x00',b'\0\0\0\x85'),plainfn=E4)
case_mid('gtp_S_only_next_nonzero',lambda p: gtp(p,0x32,b'',b'\0\0\0\x85'),plainfn=E4)
case_mid('gtp_len_short',lambda p: E4(ip4(O1,O2,17,udp(2152,2152,struct.pack('!BBHI',0x30,0xff,10,1)+p))),plainfn=E4)
# L2TP
def l2tp(p,flags=0x0002,fields=b''):
    return E4(ip4(O1,O2,17,udp(1701,1701,struct.pack('!H',flags)+fields+b'\xff\x03\x00\x21'+p)))
case_mid('l2tp_offset',lambda p: l2tp(p,0x0202,b'\0\1\0\1'+b'\0\4'+b'\xaa'*4),plainfn=E4)
case_mid('l2tp_all',lambda p: l2tp(p,0x4a02,struct.pack('!H',6+2+4+4+2+3+4+len(p))+b'\0\1\0\1'+b'\0\0\0\0'+b'\0\3'+b'\xaa'*3),plainfn=E4)
case_mid('l2tp_offset_huge',lambda p: l2tp(p,0x0202,b'\0\1\0\1'+b'\xff\xff'),plainfn=E4)
case_mid('l2tp_len_short',lambda p: l2tp(p,0x4002,struct.pack('!H',8)+b'\0\1\0\1'),plainfn=E4)
# nested: MPLS(eth) -> IPv4 -> GRE(0x6558 TEB) -> eth -> IPv4 -> UDP VXLAN -> eth -> IP TCP
def nest(p):
    vx=ip4(O1,O2,17,udp(50000,4789,b'\x08\0\0\0\0\0\x01\0'+E4(p)))
    gre=ip4([172,16,0,1],[172,16,0,2],47,struct.pack('!HH',0,0x6558)+E4(vx))
    return eth(0x8847,struct.pack('!I',(100<<12)|0x100|64)+gre)
case_mid('nest_mpls_gre_vxlan',nest,plainfn=E4)
# GRE with checksum+key+seq and routing bit
def gre_r(p): return E4(ip4(O1,O2,47,struct.pack('!HH',0x4000,0x0800)+b'\0\0\0\0'+b'\0\0\0\0'+p))
case_mid('gre_routing',gre_r,plainfn=E4)
def gre_r2(p): return E4(ip4(O1,O2,47,struct.pack('!HH',0x4000,0x0800)+b'\0\0\0\0'+b'\x00\x01\x00\xff'+p))
case_mid('gre_routing_bad',gre_r2,plainfn=E4)
# GRE version 1 (PPTP) with PPP
def pptp(p): return E4(ip4(O1,O2,47,struct.pack('!HHHH',0x3081,0x880b,4+len(p),1)+b'\0\0\0\1'+b'\0\0\0\0'+b'\xff\x03\x00\x21'+p))
case_mid('gre_pptp',pptp,plainfn=E4)
# ICMP quoting only a first fragment (MF set) standalone
def icq(p):
    return E4(p)
fr=[E4(p) for c,p in conn(cp=1111)]
cc=conn(mss=600)
for i,(c,p) in enumerate(cc):
    fr.append(E4(p))
    if len(p)>500:
        fs=frag4(p,400); fr.append(E4(ip4(B,A,1,struct.pack('!BBHI',11,1,0,0)+fs[0])))
fr+=[E4(p) for c,p in conn(cp=2222)]
pcap(D+'icmp_quote_firstfrag_only.pcap',fr)
fr=[]
for i,(c,p) in enumerate(conn(mss=600,v6=True,a=A6,b=B6)):
    fr.append(eth(0x86dd,p))
    if len(p)>500:
        fs=frag6(p,400,id=9+i); fr.append(eth(0x86dd,ip6(B6,A6,58,struct.pack('!BBHI',3,1,0,0)+fs[0])))
pcap(D+'icmp6_quote_firstfrag_only.pcap',[E4(p) for c,p in conn(cp=1111)]+fr+[E4(p) for c,p in conn(cp=2222)])
# vlan 9100 inside 88a8 inside 8100 ... deep stack of 30 vlans
def deep(p,n=30):
    b=p; et=0x800
    for i in range(n): b=struct.pack('!HH',i,et)+b; et=0x8100
    return eth(et,b)
case_mid('vlan_deep30',deep,plainfn=E4)
case_mid('vlan_deep20',lambda p:deep(p,20),plainfn=E4)
# IPv4 AH inside a fragment
def ahfrag(p): return p
