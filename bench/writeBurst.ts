/**
 * `--after-writes <n>`: n cards created over the bench's connections right before a read scenario,
 * so the read is measured as a busy board sees it (read caches just dropped, fresh card objects,
 * the garbage of the writes still about). A get was once 5x the floor right after such a burst.
 */
export async function writeBurst(baseUrl: string, count: number, connections: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const answer = await fetch(`${baseUrl}/api/tasks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          content: `# Burst card ${n}\n\nWritten right before a read scenario.`,
          status: 'backlog',
          priority: 'low',
        }),
      });
      await answer.arrayBuffer();
      if (answer.status !== 201) throw new Error(`a burst create answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, count) }, worker));
}
