import { z } from "zod";

import { ZClusterRef, ZGroupId } from "./params";

// Path parameters as Next passes them (already URL-decoded).
export const ZClusterParams = z.object({ cluster: ZClusterRef });
export const ZGroupParams = z.object({ cluster: ZClusterRef, group: ZGroupId });
export const ZNoParams = z.object({});
