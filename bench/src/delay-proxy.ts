// A TCP proxy that holds every chunk, each way, for a fixed delay before passing it on (in order): a
// database as far away as another machine. Usage: node delay-proxy.js <host:port> <ms>; prints its port.
import net from 'node:net';

const [target = '', delayArgument = '1'] = process.argv.slice(2);
const [host = '127.0.0.1', port = '5432'] = target.split(':');
const delayMs = Number(delayArgument);

/** Passes `from`'s chunks and its end to `to`, each `delayMs` later; an error on either closes both. */
function forward(from: net.Socket, to: net.Socket): void {
  from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('error', () => to.destroy());
  from.on('close', () => setTimeout(() => to.destroy(), delayMs));
}

const server = net.createServer((client) => {
  const upstream = net.connect(Number(port), host);
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  forward(client, upstream);
  forward(upstream, client);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as net.AddressInfo;
  console.log(address.port);
});
// Exit on SIGTERM rather than die by it, like the bench's other servers.
process.on('SIGTERM', () => process.exit(0));
