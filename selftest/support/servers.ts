import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface LocalServer {
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

/** A small local HTTP server on a free loopback port, for hostile-target and client tests. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
