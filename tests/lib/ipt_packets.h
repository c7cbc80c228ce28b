/* ipt_packets.h - Intel PT packets as byte lists for hand-made traces in
   the unit tests (static const uint8_t trace[] = {PSB, FUP(0x1000), ...}).
   IPs: their low 16 bits, as IPC 3 (6 bytes, upper bits 0). */
#ifndef IPT_PACKETS_H
#define IPT_PACKETS_H

#define PSB 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82
#define PSBEND 0x02, 0x23
#define FUP(ip) 0x7d, (ip) & 0xff, ((ip) >> 8) & 0xff, 0, 0, 0, 0 /* IPC 3: 6 bytes */
#define MODE64 0x99, 0x01
#define TNT1(t) (t) ? 0x06 : 0x04 /* one bit */
#define PGD_NOIP 0x01
#define PGD(ip) 0x61, (ip) & 0xff, ((ip) >> 8) & 0xff, 0, 0, 0, 0
#define PGE(ip) 0x71, (ip) & 0xff, ((ip) >> 8) & 0xff, 0, 0, 0, 0
#define TIP(ip) 0x6d, (ip) & 0xff, ((ip) >> 8) & 0xff, 0, 0, 0, 0
#define TSX_BEGIN 0x99, 0x21
#define TSX_ABORT 0x99, 0x22
#define TSC(t) 0x19, (t) & 0xff, ((t) >> 8) & 0xff, 0, 0, 0, 0, 0
#define FUP16(ip) 0x3d, (ip) & 0xff, ((ip) >> 8) & 0xff /* IPC 1: update 16 bits */
#define PIP(cr3) 0x02, 0x43, ((cr3) >> 4) & 0xfe, ((cr3) >> 12) & 0xff, ((cr3) >> 20) & 0xff, 0, 0, 0 /* cr3 < 2^28 */
#define PTW_NOIP(v) 0x02, 0x12, (v) & 0xff, ((v) >> 8) & 0xff, 0, 0 /* 4-byte payload */

#endif
