import type { useEngineStatus } from '../../../hooks/local';

/** The engine's status and its actions, held once by the tab and passed to the parts that show or change them. */
export type EngineControl = ReturnType<typeof useEngineStatus>;
