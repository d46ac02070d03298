"""A TCP proxy on loopback that delays every byte by a fixed time in each direction,
as a slow network would: tests put it between a browser and a server to measure what a
person sees on a link with added latency."""

import asyncio
import threading
import time


class LatencyProxy:
    """Forwards 127.0.0.1:`port` to `target_port`, each chunk delivered `delay` seconds
    after it arrived, in order, in both directions. Runs on its own thread's event loop."""

    def __init__(self, target_port: int, delay: float):
        self.target_port = target_port
        self.delay = delay
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        assert started.wait(5), "the latency proxy did not start"

    def _run(self, started):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._accept, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()

    async def _accept(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            self._pipe(client_reader, server_writer), self._pipe(server_reader, client_writer), return_exceptions=True
        )

    async def _pipe(self, reader, writer):
        """Reads as data comes and hands each chunk to a writer task that sends it once
        its delay is over, so a delay never slows the reading (latency, not bandwidth)."""
        queue = asyncio.Queue()

        async def send():
            while True:
                due, chunk = await queue.get()
                if chunk is None:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        try:
            while chunk := await reader.read(65536):
                queue.put_nowait((time.monotonic() + self.delay, chunk))
        finally:
            queue.put_nowait((time.monotonic() + self.delay, None))
            await sender

    def close(self):
        async def stop():
            self.server.close()
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        asyncio.run_coroutine_threadsafe(stop(), self.loop)
        self.thread.join(5)
