/** One public professional-network profile as network search answers it (spec §2.6). */
export interface ProfileMatch {
  name: string;
  headline: string | null;
  companyName: string | null;
  title: string | null;
  location: string | null;
  networkUrl: string;
}
